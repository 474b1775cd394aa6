/** Amounts as people read them on pages, documents and messages: `12 500 XAF` (whole francs). */
export function formatXaf(amount: number): string {
  return `${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} XAF`
}
