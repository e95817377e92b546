// Whether a supervised worker serves, and the requests waiting until it
// does (supervision.ts: WorkerSpec.ready). Each start is a generation: a
// `ready` from a thread that has since exited never marks its successor.
/** Requests wait here for a worker that is (re)starting: each start that reaches `ready` wakes them. */
export class Readiness {
  private serving = false;
  private generation = 0;
  private waiters: Array<() => void> = [];

  /** A new thread: not serving until it says so; returns its generation. */
  started(): number {
    this.serving = false;
    return ++this.generation;
  }

  /** The thread of `generation` serves (ignored when a newer one has started since). */
  serves(generation: number): void {
    if (generation !== this.generation) return;
    this.serving = true;
    for (const wake of this.waiters.splice(0)) wake();
  }

  exited(): void {
    this.serving = false;
    this.generation++;
  }

  /** No start will come (svc is stopping): the waiting requests go on now and fail as the worker is gone. */
  stopped(): void {
    this.exited();
    for (const wake of this.waiters.splice(0)) wake();
  }

  is(): boolean {
    return this.serving;
  }

  wait(timeoutMs: number, what: () => string): Promise<void> {
    if (this.serving) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        reject(new Error(what()));
      }, timeoutMs);
      this.waiters.push(wake);
    });
  }
}
