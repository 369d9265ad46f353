import { buttonStyles } from '@/components/button-styles.ts';

interface StateFilterProps<Value> {
  /** The group's accessible name. */
  label: string;
  options: ReadonlyArray<{ value: Value; label: string }>;
  value: Value;
  onChange: (value: Value) => void;
}

/** Toggle buttons above a list, one pressed: which state's rows it shows. */
export function StateFilter<Value>({ label, options, value, onChange }: StateFilterProps<Value>) {
  return (
    <div role="group" aria-label={label} className="flex flex-wrap gap-2">
      {options.map((option) => (
        <button
          key={option.label}
          type="button"
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
          className={`${buttonStyles.secondary} px-3 py-1.5 text-sm aria-pressed:border-violet-400 aria-pressed:bg-violet-500/25`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
