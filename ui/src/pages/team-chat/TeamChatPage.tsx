// A team's chat (built by issue 18; skeleton until its helper lands).
export default function TeamChatPage() {
  return (
    <section className="p-6">
      <h1 className="page-title">Team chat</h1>
    </section>
  );
}
