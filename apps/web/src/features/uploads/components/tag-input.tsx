import { X } from 'lucide-react';
import { useId, useState } from 'react';
import type { ClipboardEvent, KeyboardEvent } from 'react';

interface TagInputProps {
  label: string;
  tags: string[];
  onChange: (tags: string[]) => void;
  isDisabled?: boolean;
  /** At most this many (the contract's 30). */
  max?: number;
}

function splitTags(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim().toLowerCase().slice(0, 50))
    .filter(Boolean);
}

/**
 * Tags as chips: Enter or a comma makes a chip, Backspace in the empty field takes the last one
 * back, each chip has its own remove button. A pasted list becomes several chips.
 */
export function TagInput({ label, tags, onChange, isDisabled = false, max = 30 }: TagInputProps) {
  const inputId = useId();
  const [draft, setDraft] = useState('');

  const add = (text: string) => {
    const next = [...new Set([...tags, ...splitTags(text)])].slice(0, max);
    if (next.length !== tags.length) onChange(next);
    setDraft('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      if (draft.trim()) add(draft);
    } else if (event.key === 'Backspace' && draft === '' && tags.length > 0) {
      onChange(tags.slice(0, -1));
    }
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (text.includes(',')) {
      event.preventDefault();
      add(text);
    }
  };

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium text-gray-200">
        {label}
      </label>
      <div className="flex min-h-10 flex-wrap items-center gap-1.5 rounded-lg border border-white/15 bg-gray-950 px-2 py-1.5 focus-within:outline-2 focus-within:outline-violet-400">
        <ul className="contents" aria-label={`${label} added`}>
          {tags.map((tag) => (
            <li
              key={tag}
              className="inline-flex items-center gap-1 rounded-full bg-violet-500/20 py-0.5 pr-1 pl-2.5 text-sm text-violet-100"
            >
              {tag}
              <button
                type="button"
                disabled={isDisabled}
                onClick={() => onChange(tags.filter((other) => other !== tag))}
                aria-label={`Remove tag ${tag}`}
                className="rounded-full p-0.5 hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-violet-300"
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
        <input
          id={inputId}
          value={draft}
          disabled={isDisabled || tags.length >= max}
          onChange={(event) => {
            const value = event.target.value;
            if (value.includes(',')) add(value);
            else setDraft(value);
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={() => draft.trim() && add(draft)}
          placeholder={tags.length === 0 ? 'Type a tag, then Enter' : ''}
          className="min-w-24 flex-1 bg-transparent py-0.5 text-sm text-white outline-none placeholder:text-gray-500"
        />
      </div>
    </div>
  );
}
