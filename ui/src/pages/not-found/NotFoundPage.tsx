// A client route that matches nothing.
import { Link } from 'wouter';

export default function NotFoundPage() {
  return (
    <section className="p-6">
      <h1 className="page-title">Page not found</h1>
      <p className="mt-2 text-muted">
        Nothing lives at this address. <Link href="/teams" className="underline">Go to your teams</Link>.
      </p>
    </section>
  );
}
