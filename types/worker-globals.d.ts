// What the engine's worker reads that TypeScript's WebWorker library lacks (jsconfig.worker.json).
declare global {
  interface WorkerNavigator {
    // Chromium's Network Information API.
    connection?: { saveData?: boolean; effectiveType?: string };
  }
}
export {};
