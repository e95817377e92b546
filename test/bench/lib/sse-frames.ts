// Splits an SSE byte stream (as text chunks) into frames, each handed on
// with the time its chunk arrived: the bench clients time a frame by the
// chunk that completed it.
export class SseFrameSplitter {
  private buf = '';

  constructor(
    private readonly onFrame: (text: string, at: number) => void,
    private readonly clock: () => number,
  ) {}

  push(chunk: string): void {
    const at = this.clock();
    this.buf += chunk;
    let start = 0;
    for (;;) {
      const end = this.buf.indexOf('\n\n', start);
      if (end < 0) break;
      this.onFrame(this.buf.slice(start, end), at);
      start = end + 2;
    }
    if (start > 0) this.buf = this.buf.slice(start);
  }
}
