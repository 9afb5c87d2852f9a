import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import override_settings


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_demo_data_ensures_the_organiser_superuser(capsys):
    get_user_model().objects.create_user(username="organiser", password="changed")

    call_command("demo_data")
    call_command("demo_data")

    organiser = get_user_model().objects.get(username="organiser")
    assert organiser.is_superuser and organiser.is_staff and organiser.is_active
    assert organiser.check_password("organiser")
    assert "organiser / organiser" in capsys.readouterr().out


@pytest.mark.django_db
def test_demo_data_refuses_to_run_without_debug():
    with pytest.raises(CommandError, match="DEBUG"):
        call_command("demo_data")

    assert not get_user_model().objects.filter(username="organiser").exists()
