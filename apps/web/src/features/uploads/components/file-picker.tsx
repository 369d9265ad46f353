import { uploadMediaTypes } from '@sticky/contracts';
import { ImagePlus } from 'lucide-react';
import { useId } from 'react';
import { buttonStyles } from '@/components/button-styles.ts';

/** The drop target's sign and a labelled file input, for those who choose files instead. */
export function FilePicker({ onFiles }: { onFiles: (files: File[]) => void }) {
  const inputId = useId();
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border-2 border-dashed border-white/20 px-4 py-10 text-center">
      <ImagePlus className="size-10 text-violet-300" aria-hidden="true" />
      <p className="text-gray-200">Drop files anywhere on this page, paste them, or</p>
      <input
        id={inputId}
        type="file"
        multiple
        accept={uploadMediaTypes.join(',')}
        className="peer sr-only"
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
      <label
        htmlFor={inputId}
        className={`${buttonStyles.primary} cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-violet-300`}
      >
        Choose files
      </label>
    </div>
  );
}
