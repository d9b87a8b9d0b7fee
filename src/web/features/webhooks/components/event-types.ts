import { eventCatalogue, WEBHOOK_TEST } from "@/contract/rules";

/** Every type a delivery or event can have, for filters: the catalogue plus tests. */
export const streamEventTypesForFilter: string[] = [
  ...eventCatalogue.map((e) => e.type),
  WEBHOOK_TEST,
];
