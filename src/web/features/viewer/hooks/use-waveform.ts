import { useQuery } from "@tanstack/react-query";
import { parseWaveform } from "@/contract/media-rules";

/** The waveform proxy's peaks, read from its signed address (no credential needed). */
export function useWaveform(url: string | null) {
  return useQuery({
    queryKey: ["viewer", "waveform", url],
    enabled: !!url,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async ({ signal }) => {
      const res = await fetch(url!, { signal });
      if (!res.ok) throw new Error(`The waveform could not be read (${res.status})`);
      const peaks = parseWaveform(await res.arrayBuffer());
      if (!peaks) throw new Error("The waveform is not in the expected format");
      return peaks;
    },
  });
}
