import { type ClassValue, clsx } from "clsx";

/**
 * Joins class names. No tailwind-merge (27 KB): primitives take extra classes that add to
 * their own; where a caller must override one, the primitive exposes a variant instead.
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}
