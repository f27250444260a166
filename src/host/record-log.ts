/** A list that keeps its newest entries within a count and a size budget, and counts what it dropped. */
export class BoundedList<T> {
  private items: T[] = [];
  private head = 0;
  private size = 0;
  /** Entries dropped (oldest first) to stay within the limits. */
  dropped = 0;

  constructor(
    private readonly maxCount: number,
    private readonly maxSize = Infinity,
    private readonly sizeOf: (item: T) => number = () => 0,
  ) {}

  push(item: T): void {
    this.items.push(item);
    this.size += this.sizeOf(item);
    while (
      this.items.length - this.head > 1 &&
      (this.items.length - this.head > this.maxCount || this.size > this.maxSize)
    ) {
      this.size -= this.sizeOf(this.items[this.head]!);
      this.head++;
      this.dropped++;
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) this.compact();
  }

  private compact(): void {
    this.items.splice(0, this.head);
    this.head = 0;
  }

  /** The kept entries, oldest first (a live array: do not hold on to it across pushes). */
  get list(): T[] {
    if (this.head > 0) this.compact();
    return this.items;
  }

  get length(): number {
    return this.items.length - this.head;
  }

  /** Entries ever pushed. */
  get total(): number {
    return this.items.length - this.head + this.dropped;
  }
}
