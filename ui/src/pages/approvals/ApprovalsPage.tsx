// Approvals (built by issue 18; skeleton until its helper lands).
export default function ApprovalsPage() {
  return (
    <section className="p-6">
      <h1 className="page-title">Approvals</h1>
    </section>
  );
}
