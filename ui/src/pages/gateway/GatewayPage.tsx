// The gateway page (built by issue 18; skeleton until its helper lands).
export default function GatewayPage() {
  return (
    <section className="p-6">
      <h1 className="page-title">Gateway</h1>
    </section>
  );
}
