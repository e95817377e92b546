// The teams list (built by issue 18; skeleton until its helper lands).
export default function TeamsPage() {
  return (
    <section className="p-6">
      <h1 className="page-title">Teams</h1>
    </section>
  );
}
