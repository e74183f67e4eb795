// The worker area (/work) and the console (/console) arrive with issues 5 and 6; until then the shell
// points people at what already works.
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', lineHeight: 1.5 }}>
      <h1>Crowdbox</h1>
      <p>
        The requester API is live under <code>/api/v1</code>; its reference is at <a href="/api/docs">/api/docs</a>.
      </p>
    </main>
  );
}
