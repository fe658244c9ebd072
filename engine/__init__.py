"""Rubicon's rules engine for Julius Caesar: game data, state, legal actions, views, records.

Pure Python: never imports Flask, serial or GPIO code.
"""
