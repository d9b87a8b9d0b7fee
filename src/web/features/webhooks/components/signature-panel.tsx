import { useId, useState } from "react";
import { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS } from "@/contract/rules";
import { CopyButton } from "@/web/components/copy-button";
import { Button } from "@/web/components/ui/button";
import { FormError } from "@/web/components/ui/form-field";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";
import { TextAreaField, TextField } from "@/web/components/ui/text-field";
import { type SignatureCheck, verifySignature } from "@/web/features/webhooks/signature";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { ToneBadge } from "./tone-badge";

const header = SIGNATURE_HEADER.toLowerCase();
const fields = ["secret", "signature", "body"] as const;
const tolerance = SIGNATURE_TOLERANCE_SECONDS;

const snippets = {
  Node: `import { createHmac, timingSafeEqual } from "node:crypto";

// rawBody: the request body exactly as received (a Buffer or string), before JSON.parse.
export function verify(rawBody, signatureHeader, secret) {
  const parts = Object.fromEntries(
    signatureHeader.split(",").map((p) => p.trim().split("=", 2)),
  );
  const t = Number(parts.t);
  if (!t || Math.abs(Date.now() / 1000 - t) > ${tolerance}) return false;
  const expected = createHmac("sha256", secret).update(\`\${t}.\${rawBody}\`).digest();
  return signatureHeader
    .split(",")
    .filter((p) => p.trim().startsWith("v1="))
    .some((p) => {
      const given = Buffer.from(p.trim().slice(3), "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
// verify(req.rawBody, req.headers["${header}"], process.env.CONSIGN_WEBHOOK_SECRET)`,
  Python: `import hashlib, hmac, time

def verify(raw_body: bytes, signature_header: str, secret: str) -> bool:
    items = [p.strip().split("=", 1) for p in signature_header.split(",")]
    t = next((int(v) for k, v in items if k == "t" and v.isdigit()), None)
    if t is None or abs(time.time() - t) > ${tolerance}:
        return False
    expected = hmac.new(
        secret.encode(), f"{t}.".encode() + raw_body, hashlib.sha256
    ).hexdigest()
    return any(hmac.compare_digest(v, expected) for k, v in items if k == "v1")

# verify(request.get_data(), request.headers["${SIGNATURE_HEADER}"], SECRET)`,
  Go: `package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"
)

func Verify(rawBody []byte, signatureHeader, secret string) bool {
	var t int64
	var sigs []string
	for _, part := range strings.Split(signatureHeader, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			t, _ = strconv.ParseInt(v, 10, 64)
		case "v1":
			sigs = append(sigs, v)
		}
	}
	if t == 0 || math.Abs(float64(time.Now().Unix()-t)) > ${tolerance} {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(t, 10) + "."))
	mac.Write(rawBody)
	expected := mac.Sum(nil)
	for _, s := range sigs {
		if given, err := hex.DecodeString(s); err == nil && hmac.Equal(given, expected) {
			return true
		}
	}
	return false
}`,
};

function Verdict({ result }: { result: SignatureCheck }) {
  if (result.outcome === "malformed") {
    return (
      <p>
        <ToneBadge tone="danger">Malformed header</ToneBadge> Expected{" "}
        <code>t=&lt;unix&gt;,v1=&lt;64 hex&gt;</code>.
      </p>
    );
  }
  const minutes = Math.round(Math.abs(result.ageSeconds) / 60);
  return (
    <div className="grid gap-1">
      <p>
        {result.outcome === "valid" ? (
          <ToneBadge tone="success">Valid signature</ToneBadge>
        ) : (
          <ToneBadge tone="danger">Invalid signature</ToneBadge>
        )}{" "}
        {result.outcome === "valid"
          ? "The body was signed with this secret."
          : "Wrong secret, or the body is not byte-for-byte what was signed."}
      </p>
      {result.tooOld && (
        <p>
          <ToneBadge tone="warning">Older than {tolerance / 60} minutes</ToneBadge>{" "}
          {result.ageSeconds > 0 ? `Signed about ${minutes} min ago` : "Signed in the future"}: a
          receiver should refuse it as a possible replay.
        </p>
      )}
    </div>
  );
}

/** How receivers verify deliveries, and a checker that runs entirely in this browser. */
export function SignaturePanel() {
  const [secret, setSecret] = useState("");
  const [signature, setSignature] = useState("");
  const [rawBody, setRawBody] = useState("");
  const [result, setResult] = useState<SignatureCheck | null>(null);
  const noteId = useId();
  const check = useAsyncSubmit({
    fields,
    run: () => verifySignature({ secret: secret.trim(), header: signature.trim(), rawBody }),
    onSuccess: setResult,
  });

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section
        aria-labelledby="verify-how"
        className="grid min-w-0 grid-cols-[minmax(0,1fr)] content-start gap-3 text-sm"
      >
        <h2 id="verify-how" className="font-medium">
          How a receiver verifies a delivery
        </h2>
        <p className="text-muted-foreground">
          Every request carries{" "}
          <code className="font-mono">{SIGNATURE_HEADER}: t=&lt;unix&gt;,v1=&lt;hex&gt;</code>.
          Compute HMAC-SHA256 of <code className="font-mono">&lt;t&gt;.&lt;raw body&gt;</code> with
          the whole secret (including <code className="font-mono">whsec_</code>) as the key, compare
          it in constant time with each <code className="font-mono">v1</code>, and refuse a{" "}
          <code className="font-mono">t</code> more than {tolerance / 60} minutes from now. Use the
          raw bytes: re-serialized JSON will not match. Deduplicate on the body's{" "}
          <code className="font-mono">id</code>, since a delivery can arrive more than once.
        </p>
        <Tabs defaultValue="Node" className="min-w-0">
          <TabsList aria-label="Language">
            {Object.keys(snippets).map((lang) => (
              <TabsTrigger key={lang} value={lang}>
                {lang}
              </TabsTrigger>
            ))}
          </TabsList>
          {Object.entries(snippets).map(([lang, code]) => (
            <TabsContent key={lang} value={lang} className="relative mt-2">
              <div className="absolute right-2 top-2">
                <CopyButton text={code} label={`Copy the ${lang} snippet`} />
              </div>
              <pre
                // biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable code must be reachable by keyboard
                tabIndex={0}
                className="max-h-96 overflow-auto rounded-md border border-border bg-muted p-3 font-mono text-xs"
              >
                {code}
              </pre>
            </TabsContent>
          ))}
        </Tabs>
      </section>
      <section
        aria-labelledby="verify-check"
        className="grid min-w-0 grid-cols-[minmax(0,1fr)] content-start gap-3"
      >
        <h2 id="verify-check" className="text-sm font-medium">
          Check a signature
        </h2>
        <p id={noteId} className="text-sm text-muted-foreground">
          Computed in this browser with WebCrypto; nothing you paste is sent anywhere.
        </p>
        <form onSubmit={check.onSubmit} className="grid gap-3" aria-describedby={noteId}>
          <TextField
            label="Signing secret"
            type="password"
            autoComplete="off"
            placeholder="whsec_…"
            value={secret}
            onValueChange={setSecret}
          />
          <TextField
            label={`${SIGNATURE_HEADER} header`}
            className="font-mono"
            placeholder="t=1767225600,v1=5d41…"
            value={signature}
            onValueChange={setSignature}
          />
          <TextAreaField
            label="Raw request body"
            className="min-h-32 font-mono text-xs"
            value={rawBody}
            onValueChange={setRawBody}
          />
          <FormError>{check.problems.form}</FormError>
          <div>
            <Button type="submit" disabled={!secret || !signature || check.pending}>
              Check signature
            </Button>
          </div>
        </form>
        <div role="status" className="text-sm">
          {result && <Verdict result={result} />}
        </div>
      </section>
    </div>
  );
}
