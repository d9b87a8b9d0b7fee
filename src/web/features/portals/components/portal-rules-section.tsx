import { FormField } from "@/web/components/ui/form-field";
import { Input } from "@/web/components/ui/input";
import { NativeSelect } from "@/web/components/ui/native-select";
import { TextField } from "@/web/components/ui/text-field";
import type { PortalForm } from "../hooks/use-portal-form";
import type { SizeUnit } from "../state/portal-draft";
import { Check, Section } from "./portal-form-sections";

/** The portal form's "What they may send": sizes, counts, extensions, names, a delivery spec. */
export function RulesSection({ form: { draft, set, bind, problems } }: { form: PortalForm }) {
  return (
    <Section title="What they may send">
      <div className="grid gap-4 sm:grid-cols-2">
        <SizeField
          value={draft.maxSize}
          unit={draft.maxSizeUnit}
          error={problems.maxSize}
          onChange={(maxSize, maxSizeUnit) => set({ maxSize, maxSizeUnit })}
        />
        <TextField
          label="Files per upload (optional)"
          hint="Empty: any number."
          inputMode="numeric"
          {...bind("maxFiles")}
        />
      </div>
      <TextField
        label="Accepted extensions (optional)"
        hint="Separated by commas or spaces, e.g. mov, mxf, wav. Empty: any file."
        autoComplete="off"
        spellCheck={false}
        {...bind("allowedExtensions")}
      />
      <TextField
        label="File names must match (optional)"
        hint="A regular expression (RE2) each file’s name must match as a whole, e.g. ^A\d{3}_.*$"
        className="font-mono"
        autoComplete="off"
        spellCheck={false}
        {...bind("namePattern")}
      />
      <Check
        checked={draft.specEnabled}
        onChange={(specEnabled) => set({ specEnabled })}
        hint="Each video is probed once it lands; reviewers see whether it passed."
      >
        Check videos against a delivery spec
      </Check>
      {draft.specEnabled && (
        <div className="grid gap-4 rounded-md border border-border p-3">
          <TextField label="Spec name" placeholder="ProRes 422 HQ in MOV" {...bind("specName")} />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Containers"
              hint="As ffprobe names them: mov, mp4, mxf, matroska. Empty: any."
              spellCheck={false}
              {...bind("specContainers")}
            />
            <TextField
              label="Video codecs"
              hint="As ffprobe names them: prores, h264, hevc. Empty: any."
              spellCheck={false}
              {...bind("specVideoCodecs")}
            />
          </div>
        </div>
      )}
    </Section>
  );
}

function SizeField({
  value,
  unit,
  error,
  onChange,
}: {
  value: string;
  unit: SizeUnit;
  error?: string;
  onChange(value: string, unit: SizeUnit): void;
}) {
  return (
    <FormField
      label="Largest upload (optional)"
      hint="All its files together. Empty: no limit."
      error={error}
    >
      {(control) => (
        <div className="flex gap-2">
          <Input
            {...control}
            inputMode="decimal"
            value={value}
            onChange={(e) => onChange(e.target.value, unit)}
          />
          <NativeSelect
            aria-label="Unit"
            value={unit}
            onChange={(e) => onChange(value, e.target.value as SizeUnit)}
          >
            <option value="MB">MB</option>
            <option value="GB">GB</option>
          </NativeSelect>
        </div>
      )}
    </FormField>
  );
}
