// The board (built by issue 18; skeleton until its helper lands).
export default function BoardPage() {
  return (
    <section className="p-6">
      <h1 className="page-title">Board</h1>
    </section>
  );
}
