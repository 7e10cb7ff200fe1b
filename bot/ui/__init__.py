"""Rendering and components: table state → embeds, buttons and selects (i18n text, Discord limits),
and the Discord presenter that implements the table service's notifier."""
