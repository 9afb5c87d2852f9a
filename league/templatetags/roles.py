"""``{{ place.role|role_name:options }}``: a role as the season's preset names it."""

from django import template

from gameplay.engine.roles import Role
from gameplay.engine.roles import role_name as engine_role_name

register = template.Library()


@register.filter
def role_name(role: str, options=None) -> str:
    return engine_role_name(Role(role), options)
