// The DM console (/host/{table_id}#{host_token}).
import {TableApp} from "./app.js";

new TableApp("host").start();
