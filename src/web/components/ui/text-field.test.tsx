import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FormField } from "./form-field";
import { Input } from "./input";
import { TextAreaField, TextField } from "./text-field";
import { Textarea } from "./textarea";

const ignore = () => {};

describe("text fields", () => {
  it("render what a FormField around an Input renders: label, hint, error and their ids", () => {
    const field = (error?: string) =>
      renderToStaticMarkup(
        <TextField
          label="Title"
          hint="Shown to senders"
          error={error}
          fieldClassName="sm:w-64"
          className="font-mono"
          value="Dailies"
          placeholder="A title"
          onValueChange={ignore}
        />,
      );
    const byHand = (error?: string) =>
      renderToStaticMarkup(
        <FormField label="Title" hint="Shown to senders" error={error} className="sm:w-64">
          {(control) => (
            <Input
              {...control}
              className="font-mono"
              value="Dailies"
              placeholder="A title"
              onChange={ignore}
            />
          )}
        </FormField>,
      );
    expect(field()).toBe(byHand());
    expect(field("Too long")).toBe(byHand("Too long"));
    expect(field("Too long")).toContain('aria-invalid="true"');
    expect(field("Too long")).toMatch(/aria-describedby="(\S+)-hint \1-error"/);
  });

  it("render a Textarea the same way", () => {
    const field = renderToStaticMarkup(
      <TextAreaField label="Message" error="Required" rows={3} value="" onValueChange={ignore} />,
    );
    const byHand = renderToStaticMarkup(
      <FormField label="Message" error="Required">
        {(control) => <Textarea {...control} rows={3} value="" onChange={ignore} />}
      </FormField>,
    );
    expect(field).toBe(byHand);
  });
});
