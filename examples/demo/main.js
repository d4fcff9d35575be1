// Mounts the demo: the agent's endpoint comes from the server that serves the page.
import { createElement } from "react";
import { createRoot } from "react-dom/client";
// The full entry: the chat restores its thread after a reload (session.js).
import { init } from "agui-tool-calls/full";
import { App } from "./app.js";
import { ChatSession } from "./session.js";
import { tools } from "./tools.js";

// The wasm module loads while the configuration is fetched.
const [{ endpoint }] = await Promise.all([fetch("./config.json").then((response) => response.json()), init({ warmUp: "idle" })]);
const session = new ChatSession({ endpoint, tools, requireApproval: ["confirm_deploy"] });
createRoot(document.getElementById("root")).render(createElement(App, { session }));
