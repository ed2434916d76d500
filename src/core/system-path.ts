// Where the kernel keeps process and device state as files: /proc, /sys and /dev. Their files
// look regular (or are devices) and can hold secrets such as a process's environment.

/** /dev/null reads as empty; every other device, /proc and /sys file can hold process state. */
export function isSystemPath(realPath: string): boolean {
  if (realPath === '/dev/null') return false;
  return ['/proc', '/sys', '/dev'].some(
    (root) => realPath === root || realPath.startsWith(`${root}/`),
  );
}
