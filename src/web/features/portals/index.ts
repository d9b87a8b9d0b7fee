// What other features may use of Portals; everything else in this folder is its own. Nothing
// yet: the area is reached through its routes only.
export {};
