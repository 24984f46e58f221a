/**
 * What a warm ingest container knows of the ingest watermark: the newest report time it has seen
 * stored (written by itself, or already passed when its condition refused the write). The
 * watermark only moves forward, so a batch with nothing newer would have its write refused, and a
 * refused conditional write is still billed (at least 1 WCU). Skipping it stores the same.
 */
export class NotedWatermark {
  private upTo = '';

  /** True when the stored watermark is known to be at `newestReportAt` or later. */
  covers(newestReportAt: string): boolean {
    return newestReportAt <= this.upTo;
  }

  /** The store now holds `newestReportAt` or later (canonical ISO strings compare in time order). */
  noted(newestReportAt: string): void {
    if (newestReportAt > this.upTo) this.upTo = newestReportAt;
  }
}
