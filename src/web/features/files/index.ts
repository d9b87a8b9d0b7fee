// What other features may use of Files; everything else in this folder is its own. Nothing: Files
// sits on top of jobs, trash, transfers and shares and is reached through its routes only; what
// they share with it (the query keys) lives below every feature, in lib/query-keys.
export {};
