// Settings and health (built by issue 18; skeleton until its helper lands).
export default function SettingsPage() {
  return (
    <section className="p-6">
      <h1 className="page-title">Settings</h1>
    </section>
  );
}
