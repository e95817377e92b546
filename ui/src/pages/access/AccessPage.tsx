// The access gate page (built by issue 18; skeleton until its helper lands).
export default function AccessPage() {
  return (
    <section className="p-6">
      <h1 className="page-title">Access token required</h1>
    </section>
  );
}
