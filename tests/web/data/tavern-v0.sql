BEGIN TRANSACTION;
CREATE TABLE commitments (
	game_id VARCHAR(32) NOT NULL, 
	round INTEGER NOT NULL, 
	seat VARCHAR(8) NOT NULL, 
	faces JSON NOT NULL, 
	salt VARCHAR(32) NOT NULL, 
	digest VARCHAR(64) NOT NULL, 
	revealed BOOLEAN NOT NULL, 
	PRIMARY KEY (game_id, round, seat)
);
INSERT INTO "commitments" VALUES('g_IqqMvgEpNLY',1,'0','[3, 3]','e59b92136286c33879188584d9374da3','abd7076ae7db59cd8330d5edbefb48d291a6fb0309b677578ac8dae1e99fdf65',1);
INSERT INTO "commitments" VALUES('g_IqqMvgEpNLY',1,'1','[4, 1]','6c002c22ac90616a49c50f46c8b2d0da','ff25dae63936c8e4a8afe0b52ef6b86194625396cea1a5edff836c2d94753596',1);
INSERT INTO "commitments" VALUES('g_IqqMvgEpNLY',1,'2','[6, 4]','0552ae61b8ad619ae19043f0c6ad914d','4010ae2de36eaf042b08f12a091478585c42e8c31bfd486bef5359ac773a2ce0',1);
INSERT INTO "commitments" VALUES('g_IqqMvgEpNLY',2,'0','[4, 4]','995ef22ce95e53487d8d5c7b55bf40fd','d029e067de9ebebcbf4b4535b809df05568b3a8291842517b1109e0fa6292209',0);
INSERT INTO "commitments" VALUES('g_IqqMvgEpNLY',2,'1','[5]','4c20b2a56469f0200dc459c58d57554e','8a78d97bb744d8991756096f94c465e3d7a98e1494f6785b96ce8a12a0cd4f99',0);
INSERT INTO "commitments" VALUES('g_IqqMvgEpNLY',2,'2','[1, 4]','bb52b3ed5512297e54bbc5e44eb1617f','20f9cd6772cf319ca2cbd1f0b5e1ef9817b4e43a7ad781cd495fcb53c123dcc5',0);
INSERT INTO "commitments" VALUES('g_oBMOQDIusFw',1,'house','[13, 18, 8]','b503e90c32b441c518d26c93398b81e9','796bdf5c5cd0a690671cee071e8dd2071c177333072722ae5ab0b3468f38ea7f',1);
CREATE TABLE events (
	game_id VARCHAR(32) NOT NULL, 
	seq INTEGER NOT NULL, 
	data JSON NOT NULL, 
	PRIMARY KEY (game_id, seq)
);
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',0,'{"type": "dice_rolled", "purpose": "roll-off", "seats": [0, 1, 2], "dice": [[3, 3], [6, 2], [6, 5]], "secret": false}');
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',1,'{"type": "roll_off_result", "seats": [0, 1, 2], "sums": [6, 8, 11], "leaders": [2]}');
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',2,'{"type": "round_started", "round": 1, "starter": 2, "dice_counts": [2, 2, 2], "sum_wagers": false}');
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',3,'{"type": "dice_rolled", "purpose": "round", "seats": [0, 1, 2], "dice": [[3, 3], [4, 1], [6, 4]], "secret": true}');
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',4,'{"type": "wager_made", "seat": 2, "quantity": 5, "face": 5, "total": null}');
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',5,'{"type": "wager_made", "seat": 0, "quantity": 1, "face": 6, "total": null}');
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',6,'{"type": "wager_made", "seat": 1, "quantity": 2, "face": 1, "total": null}');
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',7,'{"type": "wager_made", "seat": 2, "quantity": 1, "face": 4, "total": null}');
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',8,'{"type": "wager_made", "seat": 0, "quantity": 1, "face": 5, "total": null}');
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',9,'{"type": "wager_made", "seat": 1, "quantity": 2, "face": 2, "total": null}');
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',10,'{"type": "accused", "accuser": 2, "wager_maker": 1}');
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',11,'{"type": "revealed", "hands": [[3, 3], [4, 1], [6, 4]], "count": 0, "outcome": "false", "losers": [1], "dice_counts": [2, 1, 2]}');
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',12,'{"type": "round_started", "round": 2, "starter": 0, "dice_counts": [2, 1, 2], "sum_wagers": false}');
INSERT INTO "events" VALUES('g_IqqMvgEpNLY',13,'{"type": "dice_rolled", "purpose": "round", "seats": [0, 1, 2], "dice": [[4, 4], [5], [1, 4]], "secret": true}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',0,'{"type": "round_opened", "round": 1, "eligible": [0, 1], "balances": [1000, 1000]}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',1,'{"type": "bet_placed", "seat": 1, "amount": 100}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',2,'{"type": "bet_placed", "seat": 0, "amount": 200}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',3,'{"type": "dice_rolled", "purpose": "target", "seats": [-1], "dice": [[13]], "secret": false}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',4,'{"type": "target_set", "target": 13}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',5,'{"type": "dice_rolled", "purpose": "house", "seats": [-1], "dice": [[18, 8]], "secret": false}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',6,'{"type": "house_rolled", "dice": [18, 8], "house_roll": 8}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',7,'{"type": "turn_started", "seat": 0}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',8,'{"type": "dice_rolled", "purpose": "d12", "seats": [0], "dice": [[11]], "secret": false}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',9,'{"type": "total_changed", "seat": 0, "total": 11, "bust": false}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',10,'{"type": "stood", "seat": 0, "bonus": 0}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',11,'{"type": "turn_started", "seat": 1}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',12,'{"type": "dice_rolled", "purpose": "d12", "seats": [1], "dice": [[10]], "secret": false}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',13,'{"type": "total_changed", "seat": 1, "total": 10, "bust": false}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',14,'{"type": "stood", "seat": 1, "bonus": 0}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',15,'{"type": "settled", "seat": 0, "bet": 200, "final": 11, "outcome": "win", "delta": 200, "balance": 1200}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',16,'{"type": "settled", "seat": 1, "bet": 100, "final": 10, "outcome": "win", "delta": 100, "balance": 1100}');
INSERT INTO "events" VALUES('g_oBMOQDIusFw',17,'{"type": "round_closed", "round": 1, "house_net": -300}');
CREATE TABLE games (
	id VARCHAR(32) NOT NULL, 
	table_id VARCHAR(32) NOT NULL, 
	game VARCHAR(16) NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	seats JSON NOT NULL, 
	header JSON NOT NULL, 
	created_ms BIGINT NOT NULL, 
	finished_ms BIGINT, 
	PRIMARY KEY (id)
);
INSERT INTO "games" VALUES('g_IqqMvgEpNLY','xf8iamNV','liars-dice','playing','["p_TE60dWCZduo", "p_5PmQvwUynSc", "p_26nnJXzpYdY"]','{"game": "liars-dice", "version": 2, "players": ["Ann", "Bo", "Random Bot"], "rules": {"dice_per_player": 2, "sides": 6, "min_players": 2, "max_players": 10, "raise_rule": "either", "wild_face": null, "spot_on": true, "sum_endgame": true, "repeat_wagers": false}, "seed": null, "starting_dice": [2, 2, 2], "typed_rolls": []}',1796105133460,NULL);
INSERT INTO "games" VALUES('g_oBMOQDIusFw','uSQ4odIQ','blackjack','ended','["p_6WaYEMpBBls", "p_tAo551UQ9Gs"]','{"game": "blackjack", "version": 2, "players": ["Cy", "Cautious Bot"], "rules": {"target_sides": 20, "house_dice": 2, "house_sides": 20, "player_sides": 12, "house_needs_under": false, "house_exact_beats_player_exact": false, "target_one_collects": true, "exact_numerator": 3, "exact_denominator": 2, "min_bet_cp": 1, "max_bet_cp": null, "max_proficiency_bonus": 6, "max_added_bonus": null}, "balances": [1000, 1000], "proficiency": [4, null], "seed": null, "typed_rolls": []}',1796105133682,1796105133694);
CREATE TABLE ledger (
	id INTEGER NOT NULL, 
	table_id VARCHAR(32) NOT NULL, 
	player_id VARCHAR(32) NOT NULL, 
	game_id VARCHAR(32), 
	round INTEGER, 
	amount_cp BIGINT NOT NULL, 
	reason VARCHAR(32) NOT NULL, 
	at_ms BIGINT NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "ledger" VALUES(1,'xf8iamNV','p_TE60dWCZduo',NULL,NULL,1000,'starting-gold',1796105133406);
INSERT INTO "ledger" VALUES(2,'xf8iamNV','p_5PmQvwUynSc',NULL,NULL,1000,'starting-gold',1796105133447);
INSERT INTO "ledger" VALUES(3,'xf8iamNV','p_26nnJXzpYdY',NULL,NULL,1000,'starting-gold',1796105133458);
INSERT INTO "ledger" VALUES(4,'xf8iamNV','p_TE60dWCZduo','g_IqqMvgEpNLY',0,-100,'ante',1796105133465);
INSERT INTO "ledger" VALUES(5,'xf8iamNV','p_5PmQvwUynSc','g_IqqMvgEpNLY',0,-100,'ante',1796105133465);
INSERT INTO "ledger" VALUES(6,'xf8iamNV','p_26nnJXzpYdY','g_IqqMvgEpNLY',0,-100,'ante',1796105133465);
INSERT INTO "ledger" VALUES(7,'uSQ4odIQ','p_6WaYEMpBBls',NULL,NULL,1000,'starting-gold',1796105133669);
INSERT INTO "ledger" VALUES(8,'uSQ4odIQ','p_tAo551UQ9Gs',NULL,NULL,1000,'starting-gold',1796105133673);
INSERT INTO "ledger" VALUES(9,'uSQ4odIQ','p_6WaYEMpBBls','g_oBMOQDIusFw',1,200,'settlement:win',1796105133693);
INSERT INTO "ledger" VALUES(10,'uSQ4odIQ','p_tAo551UQ9Gs','g_oBMOQDIusFw',1,100,'settlement:win',1796105133693);
CREATE TABLE players (
	id VARCHAR(32) NOT NULL, 
	table_id VARCHAR(32) NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	bot_kind VARCHAR(32), 
	token_hash VARCHAR(64), 
	proficiency INTEGER, 
	created_ms BIGINT NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "players" VALUES('p_TE60dWCZduo','xf8iamNV','Ann','person',NULL,'9680abfbecbb98f26f0f5a8f2ba054c15cd18097129606b65a90bb8ea69cefa9',NULL,1796105133406);
INSERT INTO "players" VALUES('p_5PmQvwUynSc','xf8iamNV','Bo','person',NULL,'7bb6501252700f04bf51c019526aee6d58000fcc9f2419c3f5e695050484b60b',NULL,1796105133447);
INSERT INTO "players" VALUES('p_26nnJXzpYdY','xf8iamNV','Random Bot','bot','random',NULL,NULL,1796105133458);
INSERT INTO "players" VALUES('p_6WaYEMpBBls','uSQ4odIQ','Cy','person',NULL,'55c86f9e105df55b1608c0ca0ca265128d1965e5afa4e8541d495aa109c9c2d9',4,1796105133669);
INSERT INTO "players" VALUES('p_tAo551UQ9Gs','uSQ4odIQ','Cautious Bot','bot','cautious',NULL,NULL,1796105133673);
CREATE TABLE tables (
	id VARCHAR(32) NOT NULL, 
	game VARCHAR(16) NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	rules JSON NOT NULL, 
	options JSON NOT NULL, 
	host_token_hash VARCHAR(64) NOT NULL, 
	seats JSON NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	game_id VARCHAR(32), 
	created_ms BIGINT NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "tables" VALUES('xf8iamNV','liars-dice','Legacy Liars','{"dice_per_player": 2, "sides": 6, "min_players": 2, "max_players": 10, "raise_rule": "either", "wild_face": null, "spot_on": true, "sum_endgame": true, "repeat_wagers": false}','{"grace_s": 600, "turn_timer_s": 0, "standin_bot": null, "bot_delay_ms": 0, "starting_gold_cp": 1000, "stake_cp": 100, "dice_mode": "digital", "auto_house": false}','9a2b4353b6493738e1827d65e14131bbc91d85976c2e752044ad654764108ffd','["p_TE60dWCZduo", "p_5PmQvwUynSc", "p_26nnJXzpYdY"]','playing','g_IqqMvgEpNLY',1796105133379);
INSERT INTO "tables" VALUES('uSQ4odIQ','blackjack','Legacy House','{"target_sides": 20, "house_dice": 2, "house_sides": 20, "player_sides": 12, "house_needs_under": false, "house_exact_beats_player_exact": false, "target_one_collects": true, "exact_numerator": 3, "exact_denominator": 2, "min_bet_cp": 1, "max_bet_cp": null, "max_proficiency_bonus": 6, "max_added_bonus": null}','{"grace_s": 600, "turn_timer_s": 0, "standin_bot": null, "bot_delay_ms": 0, "starting_gold_cp": 1000, "stake_cp": 0, "dice_mode": "digital", "auto_house": false}','f6ff9a45ef0ac535eafe61acde9485a193f420c8ee3072a6ec23b9711645dbca','["p_6WaYEMpBBls", "p_tAo551UQ9Gs"]','lobby',NULL,1796105133640);
CREATE INDEX ix_players_table_id ON players (table_id);
CREATE INDEX ix_players_token_hash ON players (token_hash);
CREATE INDEX ix_games_status ON games (status);
CREATE INDEX ix_games_table_id ON games (table_id);
CREATE INDEX ix_ledger_table_id ON ledger (table_id);
CREATE INDEX ix_ledger_player_id ON ledger (player_id);
COMMIT;
