import { Link } from 'react-router';
import { Logo } from '@/components/logo.tsx';
import { socialLinks } from './social-links.ts';

/**
 * The footer: social links, 'Connect With Us' and a credit line (docs/web.md, "Screens and
 * routes").
 */
export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-white/10 bg-gray-950">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 md:grid-cols-2">
        <div>
          <Logo />
          <p className="mt-3 max-w-sm text-sm text-gray-400">
            Find, save and share GIFs, stickers and animated text.
          </p>
        </div>
        <div className="md:justify-self-end">
          <h2 className="text-sm font-semibold tracking-wider text-gray-200 uppercase">
            Connect With Us
          </h2>
          <ul className="mt-3 flex flex-wrap gap-2">
            {socialLinks.map(({ label, href, icon: Icon }) => (
              <li key={label}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-2 rounded-full border border-white/15 px-4 py-2 text-sm text-gray-200 hover:border-white/40 hover:text-white"
                >
                  <Icon className="size-4" aria-hidden="true" />
                  {label}
                  <span className="sr-only">(opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-7xl px-4 py-5 text-sm text-gray-400">
          Made with <span aria-hidden="true">♥</span>
          <span className="sr-only">love</span> by the Sticky contributors. Fonts, emoji art and
          media are used under their licences:{' '}
          <Link
            to="/credits"
            className="font-medium text-violet-300 underline hover:text-violet-200"
          >
            see the credits
          </Link>
          .
        </p>
      </div>
    </footer>
  );
}
