// The setup page (built by issue 18; skeleton until its helper lands).
export default function SetupPage() {
  return (
    <section className="p-6">
      <h1 className="page-title">Set up svc</h1>
    </section>
  );
}
