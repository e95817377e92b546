// A team's settings (built by issue 18; skeleton until its helper lands).
export default function TeamSettingsPage() {
  return (
    <section className="p-6">
      <h1 className="page-title">Team settings</h1>
    </section>
  );
}
