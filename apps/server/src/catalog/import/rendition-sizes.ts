export interface Size {
  width: number;
  height: number;
}

/** Scale to a width (or height), never above the original, at least one pixel. */
export function fitWidth(info: Size, width: number): Size {
  const target = Math.min(width, info.width);
  return { width: target, height: Math.max(1, Math.round((info.height * target) / info.width)) };
}

export function fitHeight(info: Size, height: number): Size {
  const target = Math.min(height, info.height);
  return { width: Math.max(1, Math.round((info.width * target) / info.height)), height: target };
}

export function fitLongestSide(info: Size, side: number): Size {
  return info.width >= info.height ? fitWidth(info, side) : fitHeight(info, side);
}

/** H.264 and VP9 in 4:2:0 need even dimensions: one pixel less (or two at least). */
export function evenSize(size: Size): Size {
  const even = (value: number) => Math.max(2, value - (value % 2));
  return { width: even(size.width), height: even(size.height) };
}
