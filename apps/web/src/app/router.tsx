import { createBrowserRouter } from 'react-router';

function LandingPlaceholder() {
  return (
    <main className="mx-auto max-w-3xl p-8">
      <h1 className="text-3xl font-bold">Sticky</h1>
      <p>Search and share GIFs, stickers and animated text.</p>
    </main>
  );
}

export const router = createBrowserRouter([{ path: '*', element: <LandingPlaceholder /> }]);
