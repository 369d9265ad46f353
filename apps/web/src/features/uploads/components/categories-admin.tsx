import { categoryNameMaxLength } from '@sticky/contracts';
import type { ManagedCategory } from '@sticky/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { buttonStyles } from '@/components/button-styles.ts';
import { ErrorState, LoadingIndicator } from '@/features/content';
import { notify } from '@/lib/notify.ts';
import { refreshAfterAdminAction } from '../api/admin-audit.ts';
import {
  categoriesQueryKey,
  categoriesQueryOptions,
  createCategory,
  deleteCategory,
  renameCategory,
} from '../api/categories.ts';

const inputClass = 'rounded-lg border border-white/15 bg-gray-950 px-3 py-1.5 text-sm text-white';

function useRefreshCategories() {
  const queryClient = useQueryClient();
  return () => refreshAfterAdminAction(queryClient, categoriesQueryKey, ['content']);
}

function CategoryRow({ category }: { category: ManagedCategory }) {
  const id = useId();
  const refresh = useRefreshCategories();
  const [name, setName] = useState<string | null>(null);
  const rename = useMutation({
    mutationFn: (next: string) => renameCategory(category.id, next),
    onSuccess: async () => {
      setName(null);
      await refresh();
      void notify('success', 'Category renamed');
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteCategory(category.id),
    onSuccess: async () => {
      await refresh();
      void notify('success', 'Category deleted');
    },
    onError: (error) => void notify('error', error.message),
  });
  return (
    <li className="flex flex-wrap items-center gap-2 text-sm">
      {name === null ? (
        <>
          <span className="text-white">{category.path}</span>
          <span className="text-gray-400">
            {category.itemCount} {category.itemCount === 1 ? 'item' : 'items'}
          </span>
          <button
            type="button"
            className={buttonStyles.smallSecondary}
            onClick={() => setName(category.name)}
          >
            Rename<span className="sr-only"> {category.path}</span>
          </button>
          <button
            type="button"
            className={buttonStyles.smallSecondary}
            aria-disabled={remove.isPending || undefined}
            onClick={() => !remove.isPending && remove.mutate()}
          >
            Delete<span className="sr-only"> {category.path}</span>
          </button>
        </>
      ) : (
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (!rename.isPending) rename.mutate(name);
          }}
        >
          <label htmlFor={`${id}-name`} className="sr-only">
            New name of {category.path}
          </label>
          <input
            id={`${id}-name`}
            className={inputClass}
            value={name}
            maxLength={categoryNameMaxLength}
            // Focus moves into the field that replaced the Rename button.
            ref={(element) => element?.focus()}
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit" className={buttonStyles.smallSecondary}>
            Save
          </button>
          <button
            type="button"
            className={buttonStyles.smallSecondary}
            onClick={() => setName(null)}
          >
            Cancel
          </button>
          {rename.error && (
            <p role="alert" className="w-full text-red-300">
              {rename.error.message}
            </p>
          )}
        </form>
      )}
    </li>
  );
}

/** Categories: only admins add, rename and delete them; uploaders choose from these. */
export function CategoriesAdmin() {
  const id = useId();
  const refresh = useRefreshCategories();
  const categories = useQuery(categoriesQueryOptions());
  const [name, setName] = useState('');
  const [parentId, setParentId] = useState('');
  const create = useMutation({
    mutationFn: () => createCategory({ name, ...(parentId ? { parentId: Number(parentId) } : {}) }),
    onSuccess: async () => {
      setName('');
      await refresh();
      void notify('success', 'Category added');
    },
  });
  if (categories.isPending) return <LoadingIndicator label="Loading categories…" />;
  if (categories.error) {
    return (
      <ErrorState message={categories.error.message} onRetry={() => void categories.refetch()} />
    );
  }
  const topLevel = categories.data.filter((category) => category.parentId === null);
  return (
    <div className="flex flex-col gap-3">
      <form
        aria-label="Add a category"
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!create.isPending) create.mutate();
        }}
      >
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-name`} className="text-xs text-gray-300">
            Name
          </label>
          <input
            id={`${id}-name`}
            className={inputClass}
            value={name}
            maxLength={categoryNameMaxLength}
            required
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-parent`} className="text-xs text-gray-300">
            Under
          </label>
          <select
            id={`${id}-parent`}
            className={inputClass}
            value={parentId}
            onChange={(event) => setParentId(event.target.value)}
          >
            <option value="">(top level)</option>
            {topLevel.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          className={buttonStyles.smallSecondary}
          aria-disabled={create.isPending || undefined}
        >
          Add category
        </button>
        {create.error && (
          <p role="alert" className="w-full text-sm text-red-300">
            {create.error.message}
          </p>
        )}
      </form>
      {categories.data.length === 0 ? (
        <p className="text-gray-300">No category yet.</p>
      ) : (
        <ul aria-label="Categories" className="flex flex-col gap-2">
          {categories.data.map((category) => (
            <CategoryRow key={category.id} category={category} />
          ))}
        </ul>
      )}
    </div>
  );
}
