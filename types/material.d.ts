// The part of mkdocs-material's RxJS observables (window.document$, location$) the page uses.
export interface Observable<T> {
  subscribe(next: (value: T) => void): { unsubscribe(): void };
}
