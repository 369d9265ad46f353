/** Class lists shared by buttons and button-like links, so every call to action looks alike. */
const base =
  'inline-flex items-center justify-center gap-2 rounded-full font-semibold transition-colors ' +
  'disabled:cursor-not-allowed aria-disabled:cursor-progress';

const secondary = `${base} border border-white/20 bg-white/5 px-4 py-2 text-white hover:bg-white/10`;
const ghost = `${base} px-3 py-2 text-gray-200 hover:bg-white/10 hover:text-white`;

export const buttonStyles = {
  primary: `${base} bg-violet-600 px-5 py-2.5 text-white hover:bg-violet-700`,
  secondary,
  // Red, for the one button that deletes or revokes: only a confirmation dialog's last step.
  danger: `${base} bg-red-600 px-5 py-2.5 text-white hover:bg-red-700`,
  ghost,
  icon: `${base} size-10 text-gray-200 hover:bg-white/10 hover:text-white`,
  // A row's own actions in a list or a form: the same buttons, smaller.
  smallSecondary: `${secondary} px-3 py-1.5 text-xs`,
  smallGhost: `${ghost} px-3 py-1.5 text-xs`,
} as const;
