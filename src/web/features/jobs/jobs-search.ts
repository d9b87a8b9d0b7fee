// Apart from the page: the route's validateSearch stays in the main bundle, and importing it from
// the page module pulled the whole page (its table, drawer and Radix) into every first load.

/** The `/jobs` search: the job whose details are open. */
export interface JobsSearch {
  job?: string;
}

export const parseJobsSearch = (search: Record<string, unknown>): JobsSearch => ({
  job: typeof search.job === "string" && search.job.length <= 128 ? search.job : undefined,
});
