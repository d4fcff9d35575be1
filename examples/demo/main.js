// Mounts the demo: the agent's endpoint comes from the server that serves the page.
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.js";
import { ChatSession } from "./session.js";
import { tools } from "./tools.js";

const { endpoint } = await (await fetch("./config.json")).json();
const session = new ChatSession({ endpoint, tools, requireApproval: ["confirm_deploy"] });
createRoot(document.getElementById("root")).render(createElement(App, { session }));
