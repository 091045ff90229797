"""Running a table: seating agents (bots, people) and stepping an engine with their answers.

Nothing here is a rule: the engines adjudicate; the runner only asks each seat in turn.
"""
