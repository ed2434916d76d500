// Omit that keeps a union a union: each member loses the keys, rather than the union collapsing
// to the keys its members share.

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
