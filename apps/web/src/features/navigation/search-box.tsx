import type { limits } from '@sticky/contracts';
import { Search } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { isContentFilter } from '@/lib/content-filter.ts';

// The contract's limit, typed from it so the two cannot drift (its value would bring zod).
const maxQueryLength: (typeof limits)['maxQueryLength'] = 50;

export const emptySearchMessage = 'Please write Something...';

/**
 * docs/web.md, "The spec's rules the web keeps": the text is trimmed; empty is refused inline,
 * anything else opens /search/{text} (keeping the GIFs/Stickers/Text filter) and clears the box.
 * Enter submits.
 */
export function SearchBox() {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const inputId = useId();
  const errorId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const query = text.trim();
    if (query === '') {
      setError(emptySearchMessage);
      inputRef.current?.focus();
      return;
    }
    setError(null);
    const type = searchParams.get('type');
    void navigate({
      pathname: `/search/${encodeURIComponent(query)}`,
      search: isContentFilter(type) ? `?type=${type}` : '',
    });
    setText('');
  };

  return (
    <form role="search" noValidate onSubmit={submit}>
      <label htmlFor={inputId} className="sr-only">
        Search GIFs, stickers and animated text
      </label>
      <div className="flex items-stretch overflow-hidden rounded-full bg-white ring-2 ring-transparent focus-within:ring-violet-400">
        <input
          ref={inputRef}
          id={inputId}
          type="search"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (error) setError(null);
          }}
          maxLength={maxQueryLength}
          autoComplete="off"
          enterKeyHint="search"
          placeholder="Search GIFs and stickers"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="min-w-0 flex-1 bg-transparent px-5 py-3 text-base text-gray-900 placeholder:text-gray-500 focus:outline-none"
        />
        <button
          type="submit"
          aria-label="Search"
          className="flex w-14 items-center justify-center bg-gradient-to-br from-violet-500 to-pink-500 text-white hover:from-violet-400 hover:to-pink-400 focus-visible:outline-offset-[-4px]"
        >
          <Search className="size-6" aria-hidden="true" />
        </button>
      </div>
      {error && (
        <p id={errorId} role="alert" className="mt-2 px-4 text-sm font-medium text-rose-300">
          {error}
        </p>
      )}
    </form>
  );
}
