import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, firstScreenLoaded } from './app/app.tsx';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root element missing from index.html');
// The page's HTML shows the header until the app renders. Rendering once the first screen's
// code is here draws that screen in one pass instead of a loading state first, and as a
// transition React splits the work into short tasks, so a phone's main thread stays free for
// input (docs/web.md, "First page").
void firstScreenLoaded.then(() => {
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
});
