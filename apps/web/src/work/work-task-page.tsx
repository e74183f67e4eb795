/** /work/:projectUuid — the annotator page (being written). */
export function WorkTaskPage() {
  return <div className="page">Loading task…</div>;
}
