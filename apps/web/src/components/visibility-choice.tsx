import { itemVisibilityLabels, itemVisibilitySchema } from '@sticky/contracts';
import type { ItemVisibility } from '@sticky/contracts';
import { useId } from 'react';

interface VisibilityChoiceProps {
  /** What the group is about, said first by screen readers ("Who can see these files"). */
  legend: string;
  value: ItemVisibility;
  onChange: (value: ItemVisibility) => void;
  isDisabled?: boolean;
}

/**
 * Who will see an item (docs/uploads.md, "Visibility"), in the words /upload, /uploads and
 * /settings all use: a native radio group, so Tab reaches it and the arrow keys choose.
 */
export function VisibilityChoice({ legend, value, onChange, isDisabled }: VisibilityChoiceProps) {
  const name = useId();
  return (
    <fieldset className="flex flex-col gap-2" disabled={isDisabled}>
      <legend className="mb-1 text-sm font-medium text-gray-200">{legend}</legend>
      {itemVisibilitySchema.options.map((option) => (
        <label key={option} className="flex items-center gap-2 text-sm text-gray-100">
          <input
            type="radio"
            name={name}
            value={option}
            checked={value === option}
            onChange={() => onChange(option)}
            className="size-4 accent-violet-500"
          />
          {itemVisibilityLabels[option]}
        </label>
      ))}
    </fieldset>
  );
}
