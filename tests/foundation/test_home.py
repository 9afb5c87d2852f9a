import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db  # the home page lists clubs, tournaments and results


def test_home_page_links_to_the_log_in_the_ladder_and_health(client):
    response = client.get("/")

    assert response.status_code == 200
    assert [template.name for template in response.templates][:2] == ["home.html", "base.html"]
    assert b'href="/accounts/login/"' in response.content
    assert b'href="/ladder/"' in response.content
    assert b'href="/admin/"' not in response.content  # the admin is for site administrators
    assert b'href="/healthz"' in response.content


def test_every_page_has_a_favicon_and_favicon_ico_leads_to_it(client):
    page = client.get("/")
    icon = client.get("/favicon.ico")

    assert b'rel="icon" href="/static/league/favicon.svg"' in page.content
    assert icon.status_code == 301 and icon["Location"] == "/static/league/favicon.svg"
    assert finders.find("league/favicon.svg")
