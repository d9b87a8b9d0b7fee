import os from "node:os";
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

const serviceUrl = `http://127.0.0.1:${process.env.PORT ?? "8787"}`;

// `vite build` builds the console; `vite build --mode public` then adds the public pages (the
// recipient page `/s/{token}` and the portal page `/p/{slug}`) to the same folder. Apart, because
// one build puts a module that two entries import into a chunk both load: the recipient page's few
// helpers from the contract took the whole of `contract/rules` out of the console's entry into a
// shared chunk (+0.5 KB gzip to reach Files), and the console's chunks could as well have grown
// the light pages. The two public pages are built together: what both import (Preact, the
// formatters, the stylesheet) is one chunk both load, each light and under the same budget.
/** What joins the one shared chunk (see `codeSplitting` below). */
const shellModules = new RegExp(
  [
    String.raw`node_modules[\\/](react|scheduler|@tanstack[\\/](query-core|react-query|react-router|router-core|history|store|react-store)|zustand|clsx|class-variance-authority|use-sync-external-store)[\\/.]`,
    String.raw`lucide-react[\\/]dist[\\/]esm[\\/](Icon|context|createLucideIcon|defaultAttributes|shared|utils|icons[\\/](search|key-round|activity|circle-x|copy|download|loader|file|file-text))\.mjs`,
    String.raw`src[\\/]web[\\/]lib[\\/](cn|clipboard|use-fixed-rows|use-media-query|use-debounced-value|api-client)\.ts`,
    String.raw`src[\\/]web[\\/](lib[\\/](keymap|query-keys)|stores)[\\/]`,
    String.raw`src[\\/]web[\\/]components[\\/](ui[\\/](alert|skeleton|native-checkbox|progress-bar)|empty-state|load-error|lazy-with-retry)\.tsx`,
    String.raw`src[\\/]web[\\/]features[\\/]viewer[\\/](index\.ts|viewer-host\.tsx|viewer-store\.ts)`,
    String.raw`src[\\/]web[\\/]features[\\/]attention[\\/]api[\\/]get-attention\.ts`,
    String.raw`src[\\/]web[\\/]features[\\/]jobs[\\/](use-jobs\.ts|use-announce-job\.ts|job-model\.ts|follow-job\.ts|components[\\/]job-progress\.tsx|api[\\/])`,
    String.raw`src[\\/]web[\\/]features[\\/]transfers[\\/](components[\\/](upload-buttons|pick-files|transfers-indicator)\.tsx|engine-loader\.ts|picked-files\.ts)`,
    String.raw`src[\\/](browser[\\/](format|api-error|rate)|contract[\\/](format|rules|media-rules))\.ts`,
  ].join("|"),
);

export default defineConfig(({ mode }) => ({
  plugins: [
    tanstackRouter({
      target: "react",
      autoCodeSplitting: true,
      routesDirectory: "src/web/routes",
      generatedRouteTree: "src/web/route-tree.gen.ts",
      routeFileIgnorePrefix: "-",
    }),
    // React Fast Refresh would wrap the public pages' Preact components in React's.
    react({ exclude: /src\/public\// }),
    tailwindcss(),
    {
      // `npm run dev`: a share link opens the recipient page and a portal link the portal page,
      // as the service serves them.
      name: "public-links",
      configureServer(server) {
        server.middlewares.use((req, _res, next) => {
          if (req.url?.startsWith("/s/")) req.url = "/share.html";
          else if (req.url?.startsWith("/p/")) req.url = "/portal.html";
          next();
        });
      },
    },
  ],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  server: {
    proxy: { "/v1": { target: serviceUrl, changeOrigin: false } },
  },
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    // better-sqlite3 is a native addon: child processes isolate it more simply than threads.
    pool: "forks",
    // Half again as many workers as cores: much of the suite waits (leases running out in the
    // kill tests, PostgreSQL, child processes, SMTP), and a third worker fills those waits. On 2
    // cores the suite took 310 s with 3 workers against 486 s with 2, every test passing. (A
    // percentage string is capped at the core count, hence the number.)
    maxWorkers: Math.ceil(os.availableParallelism() * 1.5),
    globalSetup: [
      "src/server/testing/global-setup.ts",
      "src/server/testing/pg-global-setup.ts",
      "src/server/testing/s3-global-setup.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
  // No source maps in the build `npm start` serves (they would publish the source); `npm run
  // dev` serves through Vite, which maps every module on its own.
  build: {
    outDir: "dist",
    emptyOutDir: mode !== "public",
    target: "es2022",
    rolldownOptions: {
      // The public pages are light entries of their own (Preact, fetch, hash-wasm; tus-js-client
      // for the portal page).
      input: mode === "public" ? ["share.html", "portal.html"] : "index.html",
      output: {
        codeSplitting: {
          // Every page needs React, React Query, TanStack Router, zustand and the class and icon
          // helpers, and every console page shows the shell (jobs and transfers indicators,
          // attention counts) over the API client. Split automatically they arrived as 22 small
          // chunks on the way to Files, each a request and a module header compressed alone; as
          // one chunk the Files page downloads 4.7 KB gzip less (npm run bench:bundle: 156,443 to
          // 151,716 bytes). The sign-in screen, seen once a session, loads the shell's few KB
          // with it.
          // Only the console's: the public pages share their own helpers among themselves.
          groups: mode === "public" ? [] : [{ name: "vendor", test: shellModules }],
        },
      },
    },
  },
}));
