// The join link's page (/t/{table_id}): players and spectators.
import {TableApp} from "./app.js";

new TableApp("player").start();
