import type { TokenScope } from '@sticky/contracts';
import { tokenScopeSchema } from '@sticky/contracts';
import { useId } from 'react';
import { tokenScopeTexts } from './token-scopes.ts';

/**
 * The scopes of a new token, one checkbox each with what it lets the token do; `admin` only for
 * admins (the server refuses it to anyone else).
 */
export function TokenScopesField({
  scopes,
  isAdmin,
  errorId,
  onChange,
}: {
  scopes: readonly TokenScope[];
  isAdmin: boolean;
  /** The id of the message saying no scope is chosen, when it is shown. */
  errorId?: string;
  onChange: (scopes: TokenScope[]) => void;
}) {
  const baseId = useId();
  const offered = tokenScopeSchema.options.filter((scope) => scope !== 'admin' || isAdmin);
  const toggle = (scope: TokenScope, isChecked: boolean) =>
    onChange(
      tokenScopeSchema.options.filter((each) =>
        each === scope ? isChecked : scopes.includes(each),
      ),
    );
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={errorId}>
      <legend className="mb-1 text-sm font-medium text-gray-200">What the token may do</legend>
      {offered.map((scope) => {
        const inputId = `${baseId}-${scope}`;
        const descriptionId = `${inputId}-description`;
        return (
          <div key={scope} className="flex items-start gap-2">
            <input
              id={inputId}
              type="checkbox"
              checked={scopes.includes(scope)}
              aria-describedby={descriptionId}
              onChange={(event) => toggle(scope, event.target.checked)}
              className="mt-1 size-4 accent-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400"
            />
            <div className="flex flex-col">
              <label htmlFor={inputId} className="text-sm font-semibold text-white">
                {tokenScopeTexts[scope].label}
              </label>
              <span id={descriptionId} className="text-xs text-gray-400">
                {tokenScopeTexts[scope].description}
              </span>
            </div>
          </div>
        );
      })}
    </fieldset>
  );
}
