import { itemRatingLabels } from '@sticky/contracts';
import type { ItemRating, UploadItemType } from '@sticky/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { categoriesQueryOptions } from '../api/categories.ts';
import type { UploadFieldValues } from '../api/send-upload.ts';
import { TagInput } from './tag-input.tsx';

export const fieldClass =
  'w-full rounded-lg border border-white/15 bg-gray-950 px-3 py-2 text-sm text-white ' +
  'placeholder:text-gray-500 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:opacity-60';
export const labelClass = 'text-sm font-medium text-gray-200';

interface ItemFieldsProps {
  values: UploadFieldValues;
  /** `field` says which field the person changed. */
  onChange: (values: UploadFieldValues, field: keyof UploadFieldValues) => void;
  isDisabled?: boolean;
  /** Animated text keeps its type. */
  isTypeFixed?: boolean;
  /** A still picture: no type is proposed until the person picks one (docs/web.md, "Upload"). */
  isTypeUnchosen?: boolean;
  /** The id of the message saying the type is missing, while it shows. */
  typeErrorId?: string;
}

/** Title, tags, type, category, rating and source: what a person says about an item. */
export function ItemFields({
  values,
  onChange,
  isDisabled = false,
  isTypeFixed = false,
  isTypeUnchosen = false,
  typeErrorId,
}: ItemFieldsProps) {
  const id = useId();
  // Only admins add categories: a person files an item under one that exists
  // (docs/security.md, "Moderation"); the item's own stays offered while the list loads.
  const categories = useQuery(categoriesQueryOptions());
  const categoryPaths = [
    ...new Set([
      ...(categories.data ?? []).map((category) => category.path),
      ...(values.category ? [values.category] : []),
    ]),
  ];
  const set = <K extends keyof UploadFieldValues>(key: K, value: UploadFieldValues[K]) =>
    onChange({ ...values, [key]: value }, key);
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div className="flex flex-col gap-1 sm:col-span-2">
        <label htmlFor={`${id}-title`} className={labelClass}>
          Title
        </label>
        <input
          id={`${id}-title`}
          value={values.title}
          maxLength={200}
          required
          disabled={isDisabled}
          onChange={(event) => set('title', event.target.value)}
          className={fieldClass}
        />
      </div>
      <div className="sm:col-span-2">
        <TagInput
          label="Tags"
          tags={values.tags}
          isDisabled={isDisabled}
          onChange={(tags) => set('tags', tags)}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-type`} className={labelClass}>
          Type
        </label>
        <select
          id={`${id}-type`}
          value={isTypeUnchosen ? '' : values.type}
          disabled={isDisabled || isTypeFixed}
          aria-invalid={typeErrorId ? true : undefined}
          aria-describedby={typeErrorId}
          onChange={(event) => set('type', event.target.value as UploadItemType)}
          className={fieldClass}
        >
          {isTypeUnchosen && (
            <option value="" disabled>
              A still image: choose
            </option>
          )}
          <option value="gif">GIF</option>
          <option value="sticker">Sticker</option>
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-rating`} className={labelClass}>
          Rating
        </label>
        <select
          id={`${id}-rating`}
          value={values.rating}
          disabled={isDisabled}
          onChange={(event) => set('rating', event.target.value as ItemRating)}
          className={fieldClass}
        >
          {Object.entries(itemRatingLabels).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-category`} className={labelClass}>
          Category
        </label>
        <select
          id={`${id}-category`}
          value={values.category}
          disabled={isDisabled}
          onChange={(event) => set('category', event.target.value)}
          className={fieldClass}
        >
          <option value="">None</option>
          {categoryPaths.map((path) => (
            <option key={path} value={path}>
              {path}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-source`} className={labelClass}>
          Source URL
        </label>
        <input
          id={`${id}-source`}
          type="url"
          value={values.source}
          maxLength={2000}
          disabled={isDisabled}
          placeholder="https://"
          onChange={(event) => set('source', event.target.value)}
          className={fieldClass}
        />
      </div>
    </div>
  );
}
