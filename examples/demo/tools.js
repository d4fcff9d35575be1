// The frontend tools this page offers the agent (RunAgentInput.tools).
import { CONFIRM_DEPLOY_TOOL } from "../confirm-deploy.mjs";

export const tools = [CONFIRM_DEPLOY_TOOL];
